// Shared with @ftw/sokoban through @ftw/internal (bundled at build time).
export { checkedUniform } from '@ftw/internal';
