export { checkedUniform, checkInteger, checkSeed } from './check-value.js';
export { describeValue } from './describe-value.js';
