/** Placement constraint operators (spec section 2.8). */
export type ConstraintOperator = 'UNIQUE' | 'CLUSTER' | 'GROUP_BY' | 'LIKE' | 'UNLIKE' | 'MAX_PER' | 'IS';

export const CONSTRAINT_OPERATORS: readonly ConstraintOperator[] = [
  'UNIQUE', 'CLUSTER', 'GROUP_BY', 'LIKE', 'UNLIKE', 'MAX_PER', 'IS',
];

/** A constraint as written in a definition: `[field, operator]` or `[field, operator, value]`. */
export interface Constraint {
  readonly field: string;
  readonly operator: ConstraintOperator;
  readonly value?: string;
}
