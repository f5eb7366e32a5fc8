import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

import type { PromptHandlers } from '../../generated/handlers.js';
import { addDays, forecastDay, today } from '../../forecast.js';
import { CITIES } from '../../stations.js';

/** As far ahead as get_forecast goes. */
const FORECAST_DAYS = 7;
const MAX_TRIP_DAYS = 90;

/** Prompt arguments are always strings, so the trip length arrives as text. */
function tripLength(days: string): number {
  const value = Number(days.trim());
  if (!Number.isInteger(value) || value < 1 || value > MAX_TRIP_DAYS) {
    // InvalidParams (-32602) tells the client the argument is wrong, not that the server failed.
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `days must be a whole number from 1 to ${MAX_TRIP_DAYS}, not ${JSON.stringify(days)}`,
    );
  }
  return value;
}

/**
 * Prompt `packing_list` (Packing list): Suggest what to pack for a trip, from the forecast.
 * The forecast goes into the prompt, so the model needs no tool call to answer.
 */
export const get: PromptHandlers['packing_list']['get'] = async ({ city, days }) => {
  const trip = days === undefined ? undefined : tripLength(days);
  const start = today();
  // Without a trip length, show as many days as get_forecast does by default.
  const forecast = Array.from({ length: Math.min(trip ?? 3, FORECAST_DAYS) }, (_, i) => {
    const day = forecastDay(city, addDays(start, i));
    return `- ${day.date}: ${day.summary}, ${day.low} to ${day.high} °C`;
  });
  const length = trip === undefined ? 'a trip' : `a ${trip}-day trip`;
  const lines = [
    `I am packing for ${length} to ${city}, starting today. Here is the forecast:`,
    '',
    ...forecast,
  ];
  if (trip !== undefined && trip > FORECAST_DAYS) {
    lines.push(
      `(The forecast covers the first ${FORECAST_DAYS} days; assume similar weather after.)`,
    );
  }
  lines.push(
    '',
    'Suggest a packing list grouped into clothing, toiletries, documents and extras. ' +
      'Keep it short, and for each item packed because of the weather (umbrella, warm layers, ' +
      'sunscreen) say which day it is for.',
  );
  return lines.join('\n');
};

/** Completion of the arguments: cities with a station, by prefix, ignoring case. */
export const complete: PromptHandlers['packing_list']['complete'] = {
  city: async (value) =>
    CITIES.filter((city) => city.toLowerCase().startsWith(value.toLowerCase())),
};
