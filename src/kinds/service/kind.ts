// A database service (SPEC section 1): its fields and operations (fields.ts) and the kind's
// definition.
import type { DesiredService, LiveService } from '../../model/index.js';
import type { KindDefinition } from '../types.js';
import { SERVICE_FIELDS, SERVICE_OPS, type ServiceOwnDto } from './fields.js';

// ---- the kind -------------------------------------------------------------------------------

export const serviceKind = {
  kind: 'service',
  noun: 'service',
  nouns: 'services',
  fields: SERVICE_FIELDS,
  ops: SERVICE_OPS,
} satisfies KindDefinition<DesiredService, LiveService, ServiceOwnDto>;
