// A UUID as Brokerdesk's tables issue them (withdrawals, destinations, staff, factors): checked before it is
// used in a query, so a malformed id is "not found", not a database error. Isomorphic.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID.test(value);
