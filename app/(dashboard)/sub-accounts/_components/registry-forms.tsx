"use client";
import dynamic from "next/dynamic";
import { FormLoading } from "@/components/ui/form-loading";

// The two forms (react-hook-form and the catalog's E6 schema) load right after the page rather than with
// it, and only for roles that may write (page weight).
const CreateSubaccountForm = dynamic(() => import("./registry-entry-forms").then((m) => m.CreateSubaccountForm), {
  ssr: false,
  loading: () => <FormLoading title="Create sub-account" height={236} />,
});
const AddSubaccountForm = dynamic(() => import("./registry-entry-forms").then((m) => m.AddSubaccountForm), {
  ssr: false,
  loading: () => <FormLoading title="Add by UID" height={236} />,
});

export function RegistryForms() {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <CreateSubaccountForm />
      <AddSubaccountForm />
    </div>
  );
}
