/**
 * A Redis URL fit for logs, messages and files: its password replaced by `***` (the user name, host,
 * port and database kept), so that `redis://app:s3cret@cache:6379/2` becomes
 * `redis://app:***@cache:6379/2`. Text that is not a URL is returned as it is unless it holds
 * `//user:password@`, whose password is then masked the same way.
 *
 * @param url - a Redis URL, or any text (for instance `private`)
 * @returns the text with no password in it
 * @example
 * ```ts
 * redactUrl('rediss://:hunter2@10.0.0.5:6380'); // 'rediss://:***@10.0.0.5:6380'
 * redactUrl('redis://127.0.0.1:6379'); // 'redis://127.0.0.1:6379'
 * ```
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/(\/\/[^/@:]*:)[^/@]*@/, '$1***@');
  }
  if (parsed.password === '') return url;
  parsed.password = '***';
  return parsed.toString();
}
