import type { ComponentProps, FormEvent } from "react";

/**
 * Every form of Brokerdesk: it posts, and its submit is always handled here, never by the browser. Enter
 * pressed before React has hydrated the page makes the browser submit a form itself; a GET would put its
 * fields (a password, an address, an amount) into the URL, history and access logs, while a POST to a page only
 * draws the page again. server/architecture.test.ts keeps every form on this one. Apart from form.tsx, so
 * that a toolbar's search does not load the form helpers (page weight).
 */
export function Form({
  onSubmit,
  ...props
}: Omit<ComponentProps<"form">, "method" | "action" | "onSubmit"> & {
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <form
      {...props}
      method="post"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(e);
      }}
    />
  );
}
