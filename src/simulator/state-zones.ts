/**
 * The IANA zone a device in a state or province reports its local time in. Where a state spans two
 * zones this is the zone of most of its people, and the rest is named below; the simulator's places
 * carry no finer zone than their state's, so a device in the minority part shows its state's time:
 *
 * - US: FL (Panhandle west of the Apalachicola: Central), ID (north: Pacific), IN (north-west and
 *   south-west corners: Central), KS, NE, ND, SD (their west: Mountain), KY (west: Central),
 *   MI (four Upper Peninsula counties: Central), NV (West Wendover: Mountain), OR (Malheur: Mountain),
 *   TN (east, Knoxville and Chattanooga: Eastern), TX (El Paso: Mountain), AZ (Navajo Nation keeps
 *   daylight saving), AK (Aleutians).
 * - Canada: BC (Kootenay and Peace River: Mountain), ON (north-west: Central), QC (Magdalen Islands:
 *   Atlantic), NL (Labrador: Atlantic), NU (three zones), SK (Lloydminster: Mountain with DST).
 * - Mexico, northern states only: the strip along the US border of COAH, NL and TAMPS keeps US daylight
 *   saving (America/Matamoros), as does Ciudad Juárez (America/Ciudad_Juarez) in CHIH; TAMPS is given
 *   America/Matamoros because most of its people live in the border cities.
 *
 * The route endpoints of `cities.ts` agree with this table (a test checks it).
 */
export const STATE_ZONES: Readonly<Record<'US' | 'CA' | 'MX', Readonly<Record<string, string>>>> = {
  US: {
    AL: 'America/Chicago',
    AK: 'America/Anchorage',
    AZ: 'America/Phoenix',
    AR: 'America/Chicago',
    CA: 'America/Los_Angeles',
    CO: 'America/Denver',
    CT: 'America/New_York',
    DC: 'America/New_York',
    DE: 'America/New_York',
    FL: 'America/New_York',
    GA: 'America/New_York',
    HI: 'Pacific/Honolulu',
    IA: 'America/Chicago',
    ID: 'America/Boise',
    IL: 'America/Chicago',
    IN: 'America/Indiana/Indianapolis',
    KS: 'America/Chicago',
    KY: 'America/New_York',
    LA: 'America/Chicago',
    MA: 'America/New_York',
    MD: 'America/New_York',
    ME: 'America/New_York',
    MI: 'America/Detroit',
    MN: 'America/Chicago',
    MO: 'America/Chicago',
    MS: 'America/Chicago',
    MT: 'America/Denver',
    NC: 'America/New_York',
    ND: 'America/Chicago',
    NE: 'America/Chicago',
    NH: 'America/New_York',
    NJ: 'America/New_York',
    NM: 'America/Denver',
    NV: 'America/Los_Angeles',
    NY: 'America/New_York',
    OH: 'America/New_York',
    OK: 'America/Chicago',
    OR: 'America/Los_Angeles',
    PA: 'America/New_York',
    RI: 'America/New_York',
    SC: 'America/New_York',
    SD: 'America/Chicago',
    TN: 'America/Chicago',
    TX: 'America/Chicago',
    UT: 'America/Denver',
    VA: 'America/New_York',
    VT: 'America/New_York',
    WA: 'America/Los_Angeles',
    WI: 'America/Chicago',
    WV: 'America/New_York',
    WY: 'America/Denver',
  },
  CA: {
    AB: 'America/Edmonton',
    BC: 'America/Vancouver',
    MB: 'America/Winnipeg',
    NB: 'America/Moncton',
    NL: 'America/St_Johns',
    NS: 'America/Halifax',
    NT: 'America/Edmonton',
    NU: 'America/Iqaluit',
    ON: 'America/Toronto',
    PE: 'America/Halifax',
    QC: 'America/Toronto',
    SK: 'America/Regina',
    YT: 'America/Whitehorse',
  },
  MX: {
    BC: 'America/Tijuana',
    CHIH: 'America/Chihuahua',
    COAH: 'America/Monterrey',
    NL: 'America/Monterrey',
    SON: 'America/Hermosillo',
    TAMPS: 'America/Matamoros',
  },
};

/** The zone of a state or province; throws for one the table does not know. */
export function zoneOf(country: 'US' | 'CA' | 'MX', state: string): string {
  const zone = STATE_ZONES[country][state];
  if (zone === undefined) throw new Error(`no time zone for ${state}, ${country}`);
  return zone;
}
