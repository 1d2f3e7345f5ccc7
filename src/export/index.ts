// The pure part of `dbform export`: live state (+ an existing lockfile) -> YAML text + lockfile.
import type { LiveState, Lockfile } from '../model/index.js';
import { buildExportDocument } from './build.js';
import type { ExportDocument } from './document.js';
import { buildExportLockfile } from './lockfile.js';
import { renderExportYaml, type RenderOptions } from './render-yaml.js';

export { countResources, type ExportDocument } from './document.js';
export { deriveKeys, slugKey } from './keys.js';
export { describeLostBinding, lostBindings, sameBindings, type LostBinding } from './lockfile.js';

export interface ExportResult {
  document: ExportDocument;
  yaml: string;
  lock: Lockfile;
}

/**
 * Everything live in one project as config YAML and the lockfile that binds it. `previous` is an
 * existing lockfile of the same project: its keys are kept (re-exports do not churn) and its
 * password versions and protect flags carried over.
 */
export function exportLiveState(live: LiveState, options: RenderOptions & { previous?: Lockfile }): ExportResult {
  const document = buildExportDocument(live, options.previous);
  return { document, yaml: renderExportYaml(document, options), lock: buildExportLockfile(document, options.previous) };
}
