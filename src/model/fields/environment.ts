// The environment tag, which services and replica sets both carry (SPEC section 1): the same YAML
// key, wire field and normalisation, each kind with its own op. A service sends it in its create
// request; a replica set starts as DEV and is tagged after its create.
import type { OperationId } from '../operations.js';
import type { EnvironmentTag } from '../resources.js';
import { environmentOf, environmentSchema } from './common.js';
import { fieldChange, type FieldDescriptor } from './types.js';
import { liveEnvironment } from './values.js';
import { str, type MetadataDto } from './wire.js';

type Tagged = { environment?: EnvironmentTag };
type LiveTagged = { environment?: string };
type WireTagged = { metadata?: MetadataDto };

/** The environment field of a kind; `what` names the kind in the schema's description. */
export function environmentField<D extends Tagged, L extends LiveTagged, W extends WireTagged>(what: string, op: OperationId): FieldDescriptor<D, L, W> {
  return {
    id: 'environment',
    schema: { environment: environmentSchema(what) },
    desired: (raw, into) => {
      const env = environmentOf(raw.environment);
      if (env !== undefined) into.environment = env;
    },
    wire: (w, into) => void (into.environment = str(w.metadata?.environment) ?? 'DEV'),
    live: (l) => liveEnvironment(l.environment),
    record: (d) => d.environment,
    fingerprint: 'environment',
    update: (d, l) => {
      const live = liveEnvironment(l.environment);
      if (d.environment === undefined || d.environment === live) return undefined;
      return { op, changes: [fieldChange('environment', live, d.environment)], request: { environment: d.environment } };
    },
    export: (l, ctx) =>
      l.environment === 'DEV' || l.environment === 'PROD'
        ? { values: { environment: l.environment } }
        : { unmanaged: `environment ${ctx.quote(l.environment ?? '')} is not DEV or PROD: left unmanaged` },
  };
}
