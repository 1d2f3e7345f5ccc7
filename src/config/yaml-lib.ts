// The `yaml` package, loaded on first use. Most config files are read by the fast reader
// (fast-yaml.ts) and never need it; loading it costs ~25 ms of start-up.
import { createRequire } from 'node:module';

type YamlModule = typeof import('yaml');

let lib: YamlModule | undefined;

export function yamlLib(): YamlModule {
  return (lib ??= createRequire(import.meta.url)('yaml') as YamlModule);
}
