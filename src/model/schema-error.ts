// One error of an ajv validator compiled with `verbose: true` (the config's and the saved plan's,
// both generated as standalone code): the fields the messages read. The config loader and the
// plan reader each turn them into sentences (config/schema-messages.ts, planner/plan-json-problems.ts).
export interface KeywordError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
  propertyName?: string;
  schema?: unknown;
  parentSchema?: Record<string, unknown>;
  data?: unknown;
}
