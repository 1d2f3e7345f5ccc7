// The `yaml` package, loaded on first use. Most config files are read by js-yaml's event parser
// (event-yaml.ts) and never need it; loading it costs ~25 ms of start-up.
import { createRequire } from 'node:module';

type YamlModule = typeof import('yaml');

let lib: YamlModule | undefined;

export function yamlLib(): YamlModule {
  return (lib ??= createRequire(import.meta.url)('yaml') as YamlModule);
}
