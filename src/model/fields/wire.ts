// Tolerant readers of wire values (docs/api-behaviour.md): an API may send numbers as digit
// strings, leave optional fields out, or add statuses and fields dbform does not know.
import type { Endpoint } from '../resources.js';

/** A non-empty string (numbers read as their digits), else undefined. */
export function str(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** Numbers, also when a tolerant API sends digit strings. */
export function num(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value)) return Number(value);
  return undefined;
}

export interface EndpointDto {
  host?: string;
  port?: number;
}

/** An endpoint with both a host and a port, else undefined. */
export function endpointOf(dto: EndpointDto | undefined): Endpoint | undefined {
  const host = str(dto?.host);
  const port = num(dto?.port);
  return host !== undefined && port !== undefined ? { host, port } : undefined;
}

export function isPresent(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}

// Wire vocabulary several kinds' fields read (src/api/dto.ts re-exports it for the client and emulator).
export type EnvironmentTagDto = 'DEV' | 'PROD';
export type ServiceTypeDto = 'TIMESERIESDB' | 'POSTGRES' | 'VECTOR';
export type AddonDto = 'time-series' | 'ai';

export interface VpcEndpointDto {
  host?: string;
  port?: number;
  vpc_id?: string;
}

export interface ResourceSpecDto {
  cpu_millis?: number;
  memory_gbs?: number;
  volume_type?: string;
}

/** `metadata.environment`, the environment tag of a resource that carries one; absent means DEV. */
export interface MetadataDto {
  environment?: EnvironmentTagDto | (string & {});
}

/** A resize request, the same for every kind that resizes. */
export interface ResizeRequestDto {
  /** Digits. */
  cpu_millis: string;
  /** Digits. */
  memory_gbs: string;
}

/** A request that sets an environment tag, the same for every kind that carries one. */
export interface SetEnvironmentRequestDto {
  environment: EnvironmentTagDto;
}
