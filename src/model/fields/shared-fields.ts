// The fields several kinds carry (SPEC section 1), written once and instantiated per kind, each
// kind with its own ops: the name, which forces a replace, and the environment tag (a kind may
// send it in its create request or tag after its create). (A switch services and their children
// share is built beside its wire reader, in src/kinds/service/fields.ts.)
import type { OperationId } from '../operations.js';
import type { EnvironmentTag } from '../resources.js';
import { environmentOf, environmentSchema, nameSchema } from './common.js';
import { fieldChange, type FieldDescriptor } from './types.js';
import { liveEnvironment } from './values.js';
import { str, type MetadataDto } from './wire.js';

type Named = { name: string };
type WireNamed = { name?: unknown };
type Tagged = { environment?: EnvironmentTag };
type LiveTagged = { environment?: string };
type WireTagged = { metadata?: MetadataDto };

/** The name of a kind: the key when left out; a rename replaces the resource. `what` names the kind in the schema. */
export function nameField<D extends Named, L extends Named, W extends WireNamed>(what: string): FieldDescriptor<D, L, W> {
  return {
    id: 'name',
    schema: { name: nameSchema(what) },
    desired: (raw, into, key) => void (into.name = (raw.name as string | undefined) ?? key),
    wire: (w, into) => void (into.name = str(w.name) ?? ''),
    live: (l) => l.name,
    record: (d) => d.name,
    fingerprint: 'name',
    replace: (d, l) => (d.name === l.name ? undefined : [fieldChange('name', l.name, d.name, true)]),
    create: (d, body) => {
      body.request.name = d.name;
      body.changes.push(fieldChange('name', null, d.name));
    },
    export: (l, ctx) => (l.name === ctx.key ? undefined : { values: { name: l.name } }),
  };
}

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

