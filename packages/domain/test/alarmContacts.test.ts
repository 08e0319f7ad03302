// Whom the monitoring desk calls about a vehicle (issue #32): customers with a phone first, else administrators.
import { describe, expect, it } from 'vitest';
import { alarmContacts } from '../src/index.ts';

describe('alarmContacts', () => {
  it('customers with a phone, trimmed; administrators left out when a customer has one', () => {
    expect(
      alarmContacts([
        { name: 'Admin', phone: '+55 11 90000-0000', administrator: true },
        { name: 'Cliente', phone: ' +55 11 98888-7777 ', administrator: false },
        { name: 'Sem telefone', phone: '  ', administrator: 0 },
        { name: 'Nulo', phone: null },
      ]),
    ).toEqual([{ name: 'Cliente', phone: '+55 11 98888-7777' }]);
  });

  it('the administrators when no customer has a phone; nobody when nobody has one', () => {
    expect(
      alarmContacts([
        { name: 'Admin', phone: '+55 11 90000-0000', administrator: 1 },
        { name: 'Cliente', phone: '' },
      ]),
    ).toEqual([{ name: 'Admin', phone: '+55 11 90000-0000' }]);
    expect(alarmContacts([{ name: 'Cliente' }])).toEqual([]);
  });
});
