/** What main answered when it refused a change, beside the control that asked (read out at once). */
export function Refusal({ message, id }: { message: string | undefined; id?: string }) {
  return (
    <p id={id} className="dt-settings-refusal" role="alert">
      {message}
    </p>
  );
}
