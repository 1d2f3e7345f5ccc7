// Public surface of the config layer.
export { loadConfig, loadConfigInputs, loadConfigText, type ConfigInput, type LoadOptions } from './load-config.js';
export { fileOf, type FileDiagnostic } from './read-files.js';
