/** North American cities the demo fleet runs between, with the IANA zone their devices report in. */
export interface City {
  name: string;
  state: string;
  country: 'US' | 'CA' | 'MX';
  lat: number;
  lon: number;
  zone: string;
}

export const CITIES: readonly City[] = [
  { name: 'Atlanta', state: 'GA', country: 'US', lat: 33.749, lon: -84.388, zone: 'America/New_York' },
  { name: 'Charlotte', state: 'NC', country: 'US', lat: 35.227, lon: -80.843, zone: 'America/New_York' },
  { name: 'Columbus', state: 'OH', country: 'US', lat: 39.961, lon: -82.999, zone: 'America/New_York' },
  { name: 'Jacksonville', state: 'FL', country: 'US', lat: 30.332, lon: -81.656, zone: 'America/New_York' },
  { name: 'Miami', state: 'FL', country: 'US', lat: 25.762, lon: -80.192, zone: 'America/New_York' },
  { name: 'New York', state: 'NY', country: 'US', lat: 40.713, lon: -74.006, zone: 'America/New_York' },
  { name: 'Philadelphia', state: 'PA', country: 'US', lat: 39.953, lon: -75.165, zone: 'America/New_York' },
  { name: 'Pittsburgh', state: 'PA', country: 'US', lat: 40.441, lon: -79.996, zone: 'America/New_York' },
  { name: 'Boston', state: 'MA', country: 'US', lat: 42.36, lon: -71.059, zone: 'America/New_York' },
  { name: 'Detroit', state: 'MI', country: 'US', lat: 42.331, lon: -83.046, zone: 'America/Detroit' },
  {
    name: 'Indianapolis',
    state: 'IN',
    country: 'US',
    lat: 39.768,
    lon: -86.158,
    zone: 'America/Indiana/Indianapolis',
  },
  { name: 'Nashville', state: 'TN', country: 'US', lat: 36.163, lon: -86.781, zone: 'America/Chicago' },
  { name: 'Memphis', state: 'TN', country: 'US', lat: 35.149, lon: -90.049, zone: 'America/Chicago' },
  { name: 'Chicago', state: 'IL', country: 'US', lat: 41.878, lon: -87.63, zone: 'America/Chicago' },
  { name: 'St. Louis', state: 'MO', country: 'US', lat: 38.627, lon: -90.199, zone: 'America/Chicago' },
  { name: 'Kansas City', state: 'MO', country: 'US', lat: 39.1, lon: -94.578, zone: 'America/Chicago' },
  { name: 'Minneapolis', state: 'MN', country: 'US', lat: 44.978, lon: -93.265, zone: 'America/Chicago' },
  { name: 'Dallas', state: 'TX', country: 'US', lat: 32.777, lon: -96.797, zone: 'America/Chicago' },
  { name: 'Houston', state: 'TX', country: 'US', lat: 29.76, lon: -95.37, zone: 'America/Chicago' },
  { name: 'San Antonio', state: 'TX', country: 'US', lat: 29.424, lon: -98.494, zone: 'America/Chicago' },
  { name: 'Oklahoma City', state: 'OK', country: 'US', lat: 35.468, lon: -97.516, zone: 'America/Chicago' },
  { name: 'New Orleans', state: 'LA', country: 'US', lat: 29.951, lon: -90.072, zone: 'America/Chicago' },
  { name: 'Omaha', state: 'NE', country: 'US', lat: 41.257, lon: -95.995, zone: 'America/Chicago' },
  { name: 'Denver', state: 'CO', country: 'US', lat: 39.739, lon: -104.99, zone: 'America/Denver' },
  { name: 'Albuquerque', state: 'NM', country: 'US', lat: 35.084, lon: -106.65, zone: 'America/Denver' },
  { name: 'Salt Lake City', state: 'UT', country: 'US', lat: 40.761, lon: -111.891, zone: 'America/Denver' },
  { name: 'Phoenix', state: 'AZ', country: 'US', lat: 33.448, lon: -112.074, zone: 'America/Phoenix' },
  { name: 'Las Vegas', state: 'NV', country: 'US', lat: 36.17, lon: -115.14, zone: 'America/Los_Angeles' },
  {
    name: 'Los Angeles',
    state: 'CA',
    country: 'US',
    lat: 34.052,
    lon: -118.244,
    zone: 'America/Los_Angeles',
  },
  { name: 'Sacramento', state: 'CA', country: 'US', lat: 38.582, lon: -121.494, zone: 'America/Los_Angeles' },
  { name: 'Portland', state: 'OR', country: 'US', lat: 45.515, lon: -122.679, zone: 'America/Los_Angeles' },
  { name: 'Seattle', state: 'WA', country: 'US', lat: 47.606, lon: -122.332, zone: 'America/Los_Angeles' },
  { name: 'Boise', state: 'ID', country: 'US', lat: 43.615, lon: -116.202, zone: 'America/Boise' },
  { name: 'Toronto', state: 'ON', country: 'CA', lat: 43.653, lon: -79.383, zone: 'America/Toronto' },
  { name: 'Montreal', state: 'QC', country: 'CA', lat: 45.502, lon: -73.567, zone: 'America/Toronto' },
  { name: 'Halifax', state: 'NS', country: 'CA', lat: 44.649, lon: -63.575, zone: 'America/Halifax' },
  { name: 'Winnipeg', state: 'MB', country: 'CA', lat: 49.895, lon: -97.138, zone: 'America/Winnipeg' },
  { name: 'Calgary', state: 'AB', country: 'CA', lat: 51.045, lon: -114.057, zone: 'America/Edmonton' },
  { name: 'Vancouver', state: 'BC', country: 'CA', lat: 49.283, lon: -123.121, zone: 'America/Vancouver' },
  { name: 'Monterrey', state: 'NL', country: 'MX', lat: 25.686, lon: -100.316, zone: 'America/Monterrey' },
];
