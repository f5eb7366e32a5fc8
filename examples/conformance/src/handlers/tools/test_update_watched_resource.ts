import type { ToolHandlers } from '../../generated/handlers.js';

/** Tool `test_update_watched_resource`: 2025 subscribers and 2026 listeners get notifications/resources/updated. */
export const handler: ToolHandlers['test_update_watched_resource'] = async (_input, ctx) => {
  ctx.notify.resourceUpdated('test://watched-resource');
  return 'update published';
};
