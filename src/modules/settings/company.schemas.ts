import { Type } from 'typebox';
import { StrictObject, Timestamp } from '../../platform/http/schemas.js';

const Line = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S', description });

export const Company = Type.Object({
  legal_name: Type.Union([Type.String(), Type.Null()], { description: 'null until staff save the details (the documents then name the application)' }),
  address: Type.Union([Type.String(), Type.Null()], { description: 'one or more lines' }),
  tax_number: Type.Union([Type.String(), Type.Null()]),
  updated_at: Type.Union([Timestamp, Type.Null()]),
});

export const UpdateCompanyBody = StrictObject({
  legal_name: Line(200, "the company's registered name, as the documents print it"),
  address: Line(500, 'postal address; line breaks are kept (at most 6 lines)'),
  tax_number: Type.Union([Type.String({ maxLength: 50, pattern: '^[A-Za-z0-9 ./-]*$', description: 'letters, digits, spaces, . / -' }), Type.Null()], {
    description: 'the tax registration number; null or empty: none printed',
  }),
});
