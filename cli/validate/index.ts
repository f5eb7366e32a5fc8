export { validateManifest } from './validate.js';
export { semanticChecks, type Check } from './checks/index.js';
