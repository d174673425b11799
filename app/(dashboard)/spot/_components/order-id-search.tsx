"use client";
// The order ID box of every spot list (the ledger's fills and plan orders, the platform's fills): the
// platform's order IDs are digits, so anything else is refused before it reaches the URL.
import { SearchForm } from "@/components/data-table/search-form";

const ORDER_ID = /^\d{1,32}$/;

export function OrderIdSearch({
  value,
  onSearch,
}: {
  value: string | null;
  onSearch: (orderId: string | null) => void;
}) {
  return (
    <SearchForm
      label="Order ID (empty = all)"
      value={value ?? ""}
      numeric
      validate={(v) => (ORDER_ID.test(v) ? null : "An order ID is 1 to 32 digits")}
      onSearch={(orderId) => onSearch(orderId || null)}
    />
  );
}
