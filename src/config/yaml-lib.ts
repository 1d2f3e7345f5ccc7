// The `yaml` package, loaded on first use. Config data is read by js-yaml (read-yaml.ts); a file
// needs it only for a diagnostic, and loading it costs ~25 ms of start-up.
import { createRequire } from 'node:module';

type YamlModule = typeof import('yaml');

let lib: YamlModule | undefined;

export function yamlLib(): YamlModule {
  return (lib ??= createRequire(import.meta.url)('yaml') as YamlModule);
}
