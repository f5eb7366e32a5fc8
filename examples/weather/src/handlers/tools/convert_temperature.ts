import type { ToolHandlers } from '../../generated/handlers.js';
import { ABSOLUTE_ZERO, round1, toCelsius, toFahrenheit } from '../../temperature.js';

/**
 * Tool `convert_temperature` (Convert temperature): Convert a temperature between Celsius and
 * Fahrenheit. Answers with one line of text, e.g. `21 °C = 69.8 °F`.
 */
export const handler: ToolHandlers['convert_temperature'] = async ({ value, from }) => {
  // A thrown error reaches the client as an isError result carrying this message.
  if (value < ABSOLUTE_ZERO[from]) {
    throw new Error(`${value} °${from} is below absolute zero (${ABSOLUTE_ZERO[from]} °${from})`);
  }
  const [converted, to] = from === 'C' ? [toFahrenheit(value), 'F'] : [toCelsius(value), 'C'];
  return `${value} °${from} = ${round1(converted)} °${to}`;
};
