/** A weather station: the airport station that reports for a city. */
export interface Station {
  /** ICAO code of the airport. */
  id: string;
  name: string;
  city: string;
  /** ISO 3166-1 alpha-2 country code. */
  country: string;
  latitude: number;
  longitude: number;
  elevationMeters: number;
}

export const STATIONS: readonly Station[] = [
  {
    id: 'LFPG',
    name: 'Paris–Charles de Gaulle',
    city: 'Paris',
    country: 'FR',
    latitude: 49.0097,
    longitude: 2.5479,
    elevationMeters: 119,
  },
  {
    id: 'EGLL',
    name: 'London Heathrow',
    city: 'London',
    country: 'GB',
    latitude: 51.47,
    longitude: -0.4543,
    elevationMeters: 25,
  },
  {
    id: 'EDDB',
    name: 'Berlin Brandenburg',
    city: 'Berlin',
    country: 'DE',
    latitude: 52.3667,
    longitude: 13.5033,
    elevationMeters: 48,
  },
  {
    id: 'RJTT',
    name: 'Tokyo Haneda',
    city: 'Tokyo',
    country: 'JP',
    latitude: 35.5533,
    longitude: 139.7811,
    elevationMeters: 6,
  },
  {
    id: 'WSSS',
    name: 'Singapore Changi',
    city: 'Singapore',
    country: 'SG',
    latitude: 1.3502,
    longitude: 103.994,
    elevationMeters: 7,
  },
  {
    id: 'YSSY',
    name: 'Sydney Kingsford Smith',
    city: 'Sydney',
    country: 'AU',
    latitude: -33.9461,
    longitude: 151.1772,
    elevationMeters: 6,
  },
  {
    id: 'KJFK',
    name: 'New York John F. Kennedy',
    city: 'New York',
    country: 'US',
    latitude: 40.6398,
    longitude: -73.7789,
    elevationMeters: 4,
  },
  {
    id: 'KSFO',
    name: 'San Francisco International',
    city: 'San Francisco',
    country: 'US',
    latitude: 37.619,
    longitude: -122.3749,
    elevationMeters: 4,
  },
];

/** The cities with a station, offered when completing a city name. */
export const CITIES: readonly string[] = STATIONS.map((station) => station.city);
