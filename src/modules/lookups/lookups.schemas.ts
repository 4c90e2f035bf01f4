import { Type } from 'typebox';
import { IntId } from '../../platform/http/schemas.js';

export const Country = Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() });
export const Province = Type.Object({ id: Type.Integer(), name: Type.String() });
export const City = Type.Object({ id: Type.Integer(), province_id: Type.Integer(), name: Type.String() });
export const District = Type.Object({ id: Type.Integer(), city_id: Type.Integer(), name: Type.String() });
export const Location = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  country_code: Type.String(),
  is_active: Type.Boolean(),
});

export const ProvinceQuery = Type.Object({ country_id: Type.Optional(IntId) });
export const CityQuery = Type.Object({ province_id: IntId });
export const DistrictQuery = Type.Object({ city_id: IntId });

export const PasswordRules = Type.Object({
  regex: Type.String({ description: 'ECMAScript regular expression every password must match' }),
  description: Type.String(),
  min_length: Type.Integer(),
});
export const TermsLink = Type.Object({ link: Type.String() });
export const AppColors = Type.Object({
  app_color: Type.Object({ primary: Type.String(), secondary: Type.String(), accent: Type.String(), error: Type.String() }),
  email_color: Type.Object({ primary: Type.String() }),
});
