// What a kind is (STYLE.md "One kind, one folder"): everything dbform knows about VPCs, services
// and the kinds that belong to them is declared once, in the kind's folder, as one definition of
// this shape. Generic code (config, planner, API reads, executor, export, state show, output)
// iterates the registry (index.ts) and asks the definition; it never switches on a kind.
// Adding a kind: docs/adding-a-kind.md.
import type { FieldSet, Kind, OperationId, OperationSpec } from '../model/index.js';

export interface KindDefinition<D, L, W> {
  /** Its name in addresses, plans and the state (SPEC section 2). */
  kind: Kind;
  /** How messages name one, and several. */
  noun: string;
  nouns: string;
  /** The kind a resource of this kind belongs to: its address, config entry and live record sit under one of those. */
  parent?: Kind;
  /** Its managed fields, one descriptor each (src/model/fields/types.ts). */
  fields: FieldSet<D, L, W>;
  /** Its operations, one row each, in the order of the plan schema's `op` enum. */
  ops: { readonly [op in OperationId]?: OperationSpec };
}

/** A definition as generic code holds it: the kind's own types are its business. */
export type AnyKind = KindDefinition<any, any, any>;
