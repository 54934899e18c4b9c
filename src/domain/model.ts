import type { z } from 'zod';
import type * as api from '@/contract/load-view';

/**
 * The normalized model the views and the proxy work with: numbers for coordinates, accuracy in
 * meters or null (unknown: no circle), an instant on every timed item, raw device-local text kept.
 * Its shape is the one the proxy serves (`LoadView` in contract/load-view.ts, where each field is
 * described); the types are inferred from that schema, never written twice.
 *
 * It is read-only: items share their small parts where they are equal (one `Driver` for the pings
 * of a driver, one `ItemTime` for readings of the same minute), so nothing may change one in place.
 */

export type LoadBy = z.output<typeof api.LoadBy>;
export type Driver = z.output<typeof api.Driver>;
export type Place = z.output<typeof api.Place>;
export type Position = z.output<typeof api.Position>;
export type ItemTime = z.output<typeof api.ItemTime>;
export type LatestLocation = z.output<typeof api.LatestLocation>;
export type Ping = z.output<typeof api.Ping>;
export type StatusEvent = z.output<typeof api.StatusEvent>;
export type Comment = z.output<typeof api.Comment>;
export type Document = z.output<typeof api.Document>;
export type TemperatureReading = z.output<typeof api.TemperatureReading>;
export type Load = z.output<typeof api.LoadView>;
export type Outlook = z.output<typeof api.Outlook>;
export type StopOutlook = z.output<typeof api.StopOutlook>;
export type StopStatus = z.output<typeof api.StopStatus>;
export type DarkReason = z.output<typeof api.DarkReason>;
export type Appointment = z.output<typeof api.Appointment>;
export type EtaInputs = z.output<typeof api.EtaInputs>;
