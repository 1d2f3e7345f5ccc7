import type { ProjectDto } from '../../api/dto.js';
import { visibleProjectIds } from '../auth.js';
import type { Route } from '../router.js';
import { ok } from './common.js';

export const projectRoutes: Route[] = [
  {
    method: 'GET',
    template: '/projects',
    handle(ctx) {
      const out: ProjectDto[] = [];
      for (const id of visibleProjectIds(ctx.principal)) {
        const p = ctx.world.projects.get(id);
        if (p) out.push({ id: p.id, name: p.name });
      }
      return ok(out);
    },
  },
];
