import { DatabaseError } from 'pg';
import { isUniqueViolation, UNIQUE_VIOLATION } from '../../../lib/db/errors';

/** The errors node-postgres throws: a DatabaseError carrying the server's SQLSTATE and constraint name. */
function pgError(code: string, constraint?: string): DatabaseError {
  const error = new DatabaseError('duplicate key value violates unique constraint', 0, 'error');
  error.code = code;
  error.constraint = constraint;
  return error;
}

describe('isUniqueViolation', () => {
  test('a duplicate key, whichever constraint, when none is named', () => {
    expect(UNIQUE_VIOLATION).toBe('23505');
    expect(isUniqueViolation(pgError('23505', 'organizations_slug_unique'))).toBe(true);
    expect(isUniqueViolation(pgError('23505'))).toBe(true);
  });

  test('with a constraint, only a duplicate on that one', () => {
    expect(isUniqueViolation(pgError('23505', 'organizations_slug_unique'), 'organizations_slug_unique')).toBe(true);
    expect(isUniqueViolation(pgError('23505', 'invitations_pending_email'), 'organizations_slug_unique')).toBe(false);
    expect(isUniqueViolation(pgError('23505'), 'organizations_slug_unique')).toBe(false);
  });

  test('other errors and non-errors are not', () => {
    expect(isUniqueViolation(pgError('23503', 'organizations_slug_unique'))).toBe(false);
    expect(isUniqueViolation(new Error('23505'))).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
    expect(isUniqueViolation('23505')).toBe(false);
  });
});
