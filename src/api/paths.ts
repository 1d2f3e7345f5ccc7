// URL paths of the API operations and small body helpers of the client.
import { pathSegment } from '../model/path-segment.js';
import type { LogsQueryDto, MessageResponseDto } from './dto.js';

export const projectPath = (p: string) => `/projects/${pathSegment(p, 'project ID')}`;
export const vpcPath = (p: string, v: string) => `${projectPath(p)}/vpcs/${pathSegment(v, 'VPC ID')}`;
export const servicePath = (p: string, s: string) => `${projectPath(p)}/services/${pathSegment(s, 'service ID')}`;

export function asMessage(data: unknown): MessageResponseDto {
  if (typeof data === 'object' && data !== null && typeof (data as MessageResponseDto).message === 'string') {
    return { message: (data as MessageResponseDto).message! };
  }
  return {};
}

export function logsQuery(q: LogsQueryDto): URLSearchParams {
  const params = new URLSearchParams();
  if (q.cursor !== undefined) params.set('cursor', q.cursor);
  if (q.node !== undefined) params.set('node', String(q.node));
  for (const s of q.search ?? []) params.append('search', s);
  for (const s of q.severities ?? []) params.append('severities', s);
  if (q.since !== undefined) params.set('since', q.since);
  if (q.until !== undefined) params.set('until', q.until);
  return params;
}
