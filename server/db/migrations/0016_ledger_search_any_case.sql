-- 0016_ledger_search_any_case: the deposit ledger's search ("Address, tx or record ID") finds a hex
-- identifier (an EVM address or transaction hash, 0x…, or a 64-hex transaction ID) whatever its case: a
-- checksummed address copied from a block explorer mixes cases, and the platform may send it lower-case.
-- Other identifiers (base58 addresses) stay exact. Both are looked up through lower(), so these indexes
-- serve every search; the addresses had none, and a search by address read the whole ledger.
-- Not partial: the planner reads an expression index's statistics only when it is not (a partial one left
-- it guessing 0.5 % of the rows, and with LIMIT it walked the whole ledger by time for one deposit).
-- ledger_deposits_tx stays: an internal transfer's credit is found by its exact tx ID (withdrawal-ledger.ts).
CREATE INDEX ledger_deposits_tx_any_case ON ledger_deposits (lower(tx_id));
CREATE INDEX ledger_deposits_from_any_case ON ledger_deposits (lower(from_address));
CREATE INDEX ledger_deposits_to_any_case ON ledger_deposits (lower(to_address));
