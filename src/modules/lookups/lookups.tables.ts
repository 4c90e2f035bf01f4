import { boolean, char, index, integer, pgTable, text } from 'drizzle-orm/pg-core';

/** id is the ISO 3166-1 numeric code, so it never changes between releases. */
export const countries = pgTable('countries', {
  id: integer('id').primaryKey(),
  code: char('code', { length: 2 }).notNull().unique(),
  name: text('name').notNull(),
});

/** Indonesian regional data; ids are the official area codes without dots (11, 1101, 110101). */
export const provinces = pgTable(
  'provinces',
  {
    id: integer('id').primaryKey(),
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.id),
    code: text('code').notNull().unique(),
    name: text('name').notNull(),
  },
  (t) => [index('provinces_country_idx').on(t.countryId)],
);

export const cities = pgTable(
  'cities',
  {
    id: integer('id').primaryKey(),
    provinceId: integer('province_id')
      .notNull()
      .references(() => provinces.id),
    code: text('code').notNull().unique(),
    name: text('name').notNull(),
  },
  (t) => [index('cities_province_idx').on(t.provinceId)],
);

export const districts = pgTable(
  'districts',
  {
    id: integer('id').primaryKey(),
    cityId: integer('city_id')
      .notNull()
      .references(() => cities.id),
    code: text('code').notNull().unique(),
    name: text('name').notNull(),
  },
  (t) => [index('districts_city_idx').on(t.cityId)],
);

/** Datacenters. */
export const locations = pgTable('locations', {
  id: integer('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  countryCode: char('country_code', { length: 2 }).notNull(),
  isActive: boolean('is_active').notNull().default(true),
});
