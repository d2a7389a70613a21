export { describeValue } from './describe-value.js';
