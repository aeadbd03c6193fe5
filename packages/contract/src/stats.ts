import { Type, type Static } from 'typebox';

/** One period (a day `yyyy-MM-dd` or an ISO week `yyyy-Www`) of the anonymous statistics. */
export const StatsRow = Type.Object({
  period: Type.String(),
  meetings: Type.Integer(),
  webcasts: Type.Integer(),
  participants: Type.Integer(),
  webcastAudience: Type.Integer(),
  ratings: Type.Integer(),
  /** Mean rating, null when nobody rated. */
  averageRating: Type.Union([Type.Number(), Type.Null()]),
  /** Count per star, index 0 = 1 star. */
  ratingCounts: Type.Array(Type.Integer()),
});
export type StatsRow = Static<typeof StatsRow>;

export const StatsGrouping = ['day', 'week'] as const;
export type StatsGrouping = (typeof StatsGrouping)[number];

export const StatsQuery = Type.Object({
  from: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
  to: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
  group: Type.Optional(Type.Union([Type.Literal('day'), Type.Literal('week')])),
});
export type StatsQuery = Static<typeof StatsQuery>;

export const StatsResponse = Type.Object({
  from: Type.String(),
  to: Type.String(),
  group: Type.Union([Type.Literal('day'), Type.Literal('week')]),
  rows: Type.Array(StatsRow),
  totals: StatsRow,
});
export type StatsResponse = Static<typeof StatsResponse>;

export const STATS_ERRORS = {
  range: 'Startdatum måste vara före slutdatum',
  tooLong: 'Välj en period på högst 366 dagar',
} as const;
