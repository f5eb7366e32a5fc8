import type { ToolHandlers } from '../../generated/handlers.js';
import { addDays, type ForecastDay, forecastDay, today } from '../../forecast.js';

/**
 * Tool `get_forecast` (Get forecast): Daily forecast for a city, up to 7 days ahead, from today.
 */
export const handler: ToolHandlers['get_forecast'] = async (input, ctx) => {
  // The SDK validates input against the schema but does not fill in its defaults: do it here.
  const { city, days = 3, units = 'metric' } = input;
  const start = today();
  const forecast: ForecastDay[] = [];
  for (let i = 0; i < days; i++) {
    // A real forecast would call a weather service here; stop as soon as the client gives up.
    ctx.signal.throwIfAborted();
    const date = addDays(start, i);
    forecast.push(forecastDay(city, date, units));
    await ctx.progress(i + 1, days, `Forecast for ${date}`);
  }
  return { city, units, days: forecast };
};
