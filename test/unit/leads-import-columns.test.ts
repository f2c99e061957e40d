import { expect } from 'chai';
import { mapHeader } from '../../src/leads/import/columns';
import { rowToLead } from '../../src/leads/import/row';

const lead = (header: string[], values: string[]) => {
  const out = rowToLead(values, mapHeader(header));
  if (!out.ok) throw new Error(out.error);
  return out.lead;
};

describe('CSV headers of common exports', () => {
  it('reads an Apollo export: title, company, seniority, departments, # employees, the company place', () => {
    const header = [
      'First Name',
      'Last Name',
      'Title',
      'Company',
      'Company Name for Emails',
      'Email',
      'Email Status',
      'Seniority',
      'Departments',
      '# Employees',
      'Industry',
      'Keywords',
      'Person Linkedin Url',
      'Website',
      'City',
      'State',
      'Country',
      'Company City',
      'Company State',
      'Company Country',
      'Apollo Contact Id',
    ];
    const map = mapHeader(header);
    expect(map.used).to.deep.equal([
      'First Name',
      'Last Name',
      'Title',
      'Company',
      'Company Name for Emails',
      'Email',
      'Seniority',
      'Departments',
      '# Employees',
      'Industry',
      'Person Linkedin Url',
      'Website',
      'City',
      'State',
      'Country',
      'Company City',
      'Company State',
      'Company Country',
    ]);
    // Columns that feed no lead field are kept as custom fields; nothing is ignored.
    expect(map.custom.map((c) => c.field)).to.deep.equal(['email_status', 'keywords', 'apollo_contact_id']);
    expect(map.ignored).to.deep.equal([]);
    const row = [
      'Ada',
      'Lovelace',
      'CTO',
      '',
      'Analytical',
      'ada@analytical.example',
      'Verified',
      'C suite',
      'Engineering & Technical',
      '250',
      'Computer Software',
      'engines',
      'linkedin.com/in/ada',
      'analytical.example',
      '',
      '',
      '',
      'London',
      'England',
      'United Kingdom',
      'x1',
    ];
    expect(lead(header, row)).to.deep.include({
      title: 'CTO',
      company: 'Analytical',
      seniority: 'C suite',
      department: 'Engineering & Technical',
      companySize: '250',
      industry: 'Computer Software',
      // No place of the person: the company's stands in.
      city: 'London',
      state: 'England',
      country: 'United Kingdom',
    });
    // The person's own place wins over the company's.
    const own = [...row];
    own[14] = 'Austin';
    own[16] = 'United States';
    expect(lead(header, own)).to.deep.include({ city: 'Austin', state: null, country: 'United States' });
  });

  it('reads Sales Navigator and HubSpot exports', () => {
    const salesNav = ['Full Name', 'Email', 'Job Title', 'Company Name', 'Person Location', 'Company Industry', 'Company Headcount', 'Profile URL'];
    expect(mapHeader(salesNav).custom.map((c) => c.column)).to.deep.equal(['Profile URL']);
    expect(lead(salesNav, ['Bo Li', 'bo@x.example', 'VP Sales', 'X Corp', 'Berlin, Germany', 'Fintech', '51-200', 'https://www.linkedin.com/sales/lead/1'])).to.deep.include({
      firstName: 'Bo',
      title: 'VP Sales',
      company: 'X Corp',
      city: 'Berlin',
      country: 'Germany',
      industry: 'Fintech',
      companySize: '51-200',
    });
    const hubspot = ['Email', 'Job Title', 'Company Name', 'Country/Region', 'State/Region', 'Number of Employees', 'Lifecycle Stage'];
    expect(mapHeader(hubspot).custom.map((c) => c.column)).to.deep.equal(['Lifecycle Stage']);
    expect(lead(hubspot, ['cy@y.example', 'Head of People', 'Y', 'France', 'IDF', '1,000'])).to.deep.include({
      title: 'Head of People',
      country: 'France',
      state: 'IDF',
      companySize: '1,000',
    });
    const other = ['EMAIL', 'job_title', 'employees', 'company size', 'company-location'];
    expect(mapHeader(other).used).to.deep.equal(other);
    expect(lead(other, ['d@z.example', 'CMO', '', '11-50', 'Paris, France'])).to.deep.include({ companySize: '11-50', city: 'Paris', country: 'France' });
  });

  it('clips an overlong seniority, department or company size instead of refusing the lead', () => {
    const l = lead(['email', 'departments'], ['e@z.example', 'x'.repeat(500)]);
    expect(l.department).to.have.length(200);
  });
});
