import type { ResourceHandlers } from '../../generated/handlers.js';
import { STATIONS } from '../../stations.js';

/** Resource `stations` (Weather stations): every known station, as a JSON array. */
export const read: ResourceHandlers['stations'] = async () => JSON.stringify(STATIONS, null, 2);
