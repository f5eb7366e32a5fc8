import type { TemplateHandlers } from '../../generated/handlers.js';
import { forecastDay } from '../../forecast.js';
import { CITIES } from '../../stations.js';

/**
 * Resource template `forecast` (weather://forecast/{city}/{date}): one city on one day, as JSON,
 * from the same model as the get_forecast tool. `params` are already decoded and validated
 * (`date` is a real YYYY-MM-DD day).
 */
export const read: TemplateHandlers['forecast']['read'] = async ({ city, date }) => {
  const day = forecastDay(city, date);
  return JSON.stringify({ city, units: 'metric', ...day }, null, 2);
};

// A fixed day rather than the clock, so that resources/list answers the same on every call.
export const LISTED_DATE = '2026-06-01';

/** The resources/list entries: one forecast per city with a station. */
export const list: TemplateHandlers['forecast']['list'] = async () =>
  CITIES.map((city) => ({
    // Percent-encoded, for cities such as "New York"; the generated reader decodes it again.
    uri: `weather://forecast/${encodeURIComponent(city)}/${LISTED_DATE}`,
    name: `forecast-${city.toLowerCase().replaceAll(' ', '-')}-${LISTED_DATE}`,
    title: `Forecast for ${city} on ${LISTED_DATE}`,
    mimeType: 'application/json',
  }));
