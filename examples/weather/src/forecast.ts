// A synthetic forecast: every number comes from a hash of the city and the day, so the same
// question always gets the same answer (and tests can rely on it) without any weather service.
import type { GetForecastOutput, Units } from './generated/types.js';
import { round1, toFahrenheit } from './temperature.js';

export type ForecastDay = GetForecastOutput['days'][number];

const DAY_MS = 24 * 60 * 60 * 1000;

/** FNV-1a, 32 bits: tiny and stable across runs and platforms, unlike Math.random. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Milliseconds since the epoch of a YYYY-MM-DD day (UTC); a RangeError for anything else. */
function parseDate(date: string): number {
  const time = Date.parse(`${date}T00:00:00Z`);
  const valid =
    /^\d{4}-\d{2}-\d{2}$/.test(date) &&
    !Number.isNaN(time) &&
    // The round trip rejects days that Date would roll over, such as 2026-02-30.
    new Date(time).toISOString().slice(0, 10) === date;
  if (!valid) throw new RangeError(`not a date (YYYY-MM-DD): ${date}`);
  return time;
}

/** Today in UTC as YYYY-MM-DD: the first day of a forecast. */
export function today(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The day `days` after `date`, both YYYY-MM-DD. */
export function addDays(date: string, days: number): string {
  return new Date(parseDate(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Weighted, so that sunny days are more common than thunderstorms. */
function sky(roll: number, high: number): string {
  if (roll < 25) return 'Sunny';
  if (roll < 45) return 'Partly cloudy';
  if (roll < 60) return 'Cloudy';
  if (roll < 70) return 'Fog';
  // Precipitation below freezing falls as snow.
  if (roll < 85) return high < 2 ? 'Light snow' : 'Light rain';
  if (roll < 95) return high < 2 ? 'Snow showers' : 'Showers';
  return 'Thunderstorms';
}

/** The forecast for one city on one day. */
export function forecastDay(city: string, date: string, units: Units = 'metric'): ForecastDay {
  parseDate(date);
  // "paris" and " Paris" are the same place, so they get the same weather.
  const place = city.trim().toLowerCase();
  const climate = 4 + (hash(place) % 180) / 10; // the city's usual mean: 4 to 21.9 °C
  const roll = hash(`${place}|${date}`);
  const mean = climate + ((roll % 101) - 50) / 10; // the day's mean, within 5 °C of usual
  const spread = 4 + ((roll >>> 8) % 8); // 4 to 11 °C between night and day
  const high = mean + spread / 2;
  const low = mean - spread / 2;
  const convert = units === 'metric' ? round1 : (celsius: number) => round1(toFahrenheit(celsius));
  return {
    date,
    high: convert(high),
    low: convert(low),
    summary: sky((roll >>> 16) % 100, high),
  };
}
