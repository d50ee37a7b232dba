const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id as the database writes them; anything else is looked up nowhere (and matches nothing). */
export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID.test(value);
