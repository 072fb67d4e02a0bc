const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in its canonical text form: what a `uuid` column accepts without a cast error (22P02). */
export const isUuid = (value: string): boolean => UUID.test(value);
