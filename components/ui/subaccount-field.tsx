"use client";
// A form's sub-account field: the SubAccountPicker bound to a react-hook-form field (its ref, so a refused field
// takes the focus; its value, change and blur). The form's FormField draws the label and the error around it.
import { Controller, type Control, type FieldPathByValue, type FieldValues } from "react-hook-form";
import { SubAccountPicker, type SubAccountPickerProps } from "./subaccount-picker";

export function SubAccountField<T extends FieldValues>({
  control,
  name,
  ...picker
}: { control: Control<T>; name: FieldPathByValue<T, string> } & Omit<
  SubAccountPickerProps,
  "value" | "onChange" | "onBlur" | "inputRef"
>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field: f }) => (
        <SubAccountPicker
          {...picker}
          inputRef={f.ref}
          value={f.value ?? ""}
          onChange={(v) => f.onChange(v ?? "")}
          onBlur={f.onBlur}
        />
      )}
    />
  );
}
