import type { TemplateHandlers } from '../../generated/handlers.js';

/** Template `test://template/{id}/data`. */
export const read: TemplateHandlers['template_data']['read'] = async ({ id }) =>
  JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
