import type { Address } from './address.js';

/** A position in a config file; line and col are 1-based. */
export interface SourceRef {
  file: string;
  line: number;
  col: number;
}

export interface Diagnostic {
  severity: 'error' | 'warning';
  message: string;
  /** Dotted path of the offending field inside the document, e.g. `services.db.ha.replicas`. */
  path?: string;
  address?: Address;
  source?: SourceRef;
  /** Short machine-readable rule name, e.g. `cidr-overlap`. */
  code?: string;
}

export type Result<T> = { ok: true; value: T; warnings: Diagnostic[] } | { ok: false; errors: Diagnostic[] };

/** `FILE:LINE:COL: message` when a source is known, else the bare message (prefixed by the address if any). */
export function formatDiagnostic(d: Diagnostic): string {
  const prefix = d.severity === 'warning' ? 'warning: ' : '';
  if (d.source) return `${d.source.file}:${d.source.line}:${d.source.col}: ${prefix}${d.message}`;
  if (d.address) return `${prefix}${d.address}: ${d.message}`;
  return `${prefix}${d.message}`;
}

/**
 * A diagnostic as a command prints it on stderr: positioned ones exactly as `dbform validate`
 * does (`FILE:LINE:COL: message`, which CI problem matchers read), others marked `error: `.
 */
export function formatDiagnosticLine(d: Diagnostic): string {
  return d.source || d.severity === 'warning' ? formatDiagnostic(d) : `error: ${formatDiagnostic(d)}`;
}
