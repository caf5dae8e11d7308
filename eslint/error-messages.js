/**
 * `(error as Error).message` lies when something other than an Error was thrown (a string, undefined,
 * null: the last throws a second error inside the handler). What a caught value says is read through
 * shared/error-message.ts (messageOf, stackOf), which handles any value.
 */
const message =
  'Use messageOf(error) / stackOf(error) from shared/error-message.ts: a caught value need not be an Error.';

/** A rule: no `(x as Error).message` or `.stack`. */
const noErrorCast = {
  meta: { type: 'problem', docs: { description: 'read caught values with messageOf/stackOf' }, schema: [] },
  create(context) {
    return {
      "MemberExpression[property.name=/^(message|stack)$/] > TSAsExpression.object[typeAnnotation.typeName.name='Error']"(
        node,
      ) {
        context.report({ node, message });
      },
    };
  },
};

export const errorMessages = [
  {
    files: ['**/*.{ts,tsx,mts}'],
    plugins: { errors: { rules: { 'no-error-cast': noErrorCast } } },
    rules: { 'errors/no-error-cast': 'error' },
  },
];
