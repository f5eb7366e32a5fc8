import type { ConvertTemperatureInput } from './generated/types.js';

export type TemperatureUnit = ConvertTemperatureInput['from'];

/** The coldest possible temperature in each unit: anything below is a typo, not weather. */
export const ABSOLUTE_ZERO: Record<TemperatureUnit, number> = { C: -273.15, F: -459.67 };

export const toFahrenheit = (celsius: number): number => (celsius * 9) / 5 + 32;

export const toCelsius = (fahrenheit: number): number => ((fahrenheit - 32) * 5) / 9;

/** Rounds to one decimal, the precision a thermometer shows; -0 becomes 0. */
export const round1 = (value: number): number => Math.round(value * 10) / 10 || 0;
