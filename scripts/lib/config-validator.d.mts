/** The source of the generated config check (ajv standalone code) for `schema`. */
export function validatorSource(schema: object): string;
