import type { ResourceHandlers } from '../../generated/handlers.js';

/** Resource `test://watched-resource` (subscribe: true): its content; updates go out with ctx.notify.resourceUpdated. */
export const read: ResourceHandlers['watched_resource'] = async () => 'Watched resource content';
