import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../platform/db/database.js';

/**
 * Indonesia's provinces, regencies/cities and districts: the CSV files of idn-area-data 4.0.1
 * (data under the Open Database License, data/LICENSE.md), kept in this repository because that
 * package requires Node 22. To update them, copy data/{provinces,regencies,districts}.csv of a
 * newer release over these files.
 */
export const AREA_DATA_DIR = path.join(projectRoot, 'src/modules/lookups/data');

export interface ProvinceRecord {
  code: string;
  name: string;
}
export interface RegencyRecord {
  code: string;
  province_code: string;
  name: string;
}
export interface DistrictRecord {
  code: string;
  regency_code: string;
  name: string;
}

/** papaparse loads with the first file: seeds run once per build, not at every start. */
async function readCsv<T>(file: string, columns: (keyof T & string)[]): Promise<T[]> {
  const { default: Papa } = await import('papaparse');
  const parsed = Papa.parse<T>(readFileSync(path.join(AREA_DATA_DIR, file), 'utf8'), { header: true, skipEmptyLines: true });
  if (parsed.errors.length > 0) throw new Error(`${file}: ${parsed.errors[0]!.message} (row ${parsed.errors[0]!.row})`);
  const missing = columns.filter((c) => !parsed.meta.fields?.includes(c));
  if (missing.length > 0) throw new Error(`${file}: no column ${missing.join(', ')}`);
  return parsed.data;
}

export const readProvinces = () => readCsv<ProvinceRecord>('provinces.csv', ['code', 'name']);
export const readRegencies = () => readCsv<RegencyRecord>('regencies.csv', ['code', 'province_code', 'name']);
export const readDistricts = () => readCsv<DistrictRecord>('districts.csv', ['code', 'regency_code', 'name']);
