/**
 * People's and companies' names, by language, so that a Polish lead is called like a Pole and
 * works at a "Sp. z o.o.". Names carry no truth; the person's gender picks the title's form.
 */
import type { Rng } from '../random';

interface NameSet {
  readonly male: readonly string[];
  readonly female: readonly string[];
  readonly last: readonly string[];
}

const NAMES: Readonly<Record<string, NameSet>> = {
  en: {
    male: ['James', 'Michael', 'David', 'Daniel', 'Ryan', 'Ethan', 'Noah', 'Liam', 'Marcus', 'Owen', 'Tyler', 'Aaron'],
    female: ['Emily', 'Sarah', 'Jessica', 'Olivia', 'Hannah', 'Megan', 'Rachel', 'Chloe', 'Grace', 'Lauren', 'Abigail', 'Zoe'],
    last: ['Smith', 'Johnson', 'Brown', 'Taylor', 'Walker', 'Wright', 'Hughes', 'Carter', 'Mitchell', 'Turner', 'Parker', 'Collins', 'Murphy', 'Reed', 'Patel', 'Nguyen'],
  },
  de: {
    male: ['Lukas', 'Jonas', 'Felix', 'Maximilian', 'Tobias', 'Florian', 'Stefan', 'Matthias', 'Andreas', 'Jan', 'Sebastian', 'Moritz'],
    female: ['Anna', 'Lea', 'Laura', 'Julia', 'Katharina', 'Sophie', 'Lena', 'Sabine', 'Miriam', 'Franziska', 'Carolin', 'Johanna'],
    last: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Hoffmann', 'Schulz', 'Koch', 'Richter', 'Wolf', 'Huber', 'Gruber'],
  },
  fr: {
    male: ['Thomas', 'Nicolas', 'Julien', 'Antoine', 'Mathieu', 'Pierre', 'Maxime', 'Guillaume', 'Hugo', 'Louis', 'Olivier', 'Étienne'],
    female: ['Camille', 'Marie', 'Julie', 'Claire', 'Élodie', 'Manon', 'Chloé', 'Léa', 'Sophie', 'Aurélie', 'Céline', 'Margaux'],
    last: ['Martin', 'Bernard', 'Dubois', 'Durand', 'Lefebvre', 'Moreau', 'Laurent', 'Simon', 'Michel', 'Garnier', 'Rousseau', 'Fontaine', 'Tremblay', 'Gagnon', 'Peeters'],
  },
  nl: {
    male: ['Daan', 'Bram', 'Sem', 'Lucas', 'Thijs', 'Jeroen', 'Pieter', 'Ruben', 'Joost', 'Wouter', 'Koen', 'Stijn'],
    female: ['Emma', 'Sanne', 'Lotte', 'Fleur', 'Anouk', 'Eva', 'Femke', 'Iris', 'Marloes', 'Noor', 'Lieke', 'Sofie'],
    last: ['de Jong', 'Jansen', 'de Vries', 'van den Berg', 'Bakker', 'Visser', 'Smit', 'Meijer', 'de Boer', 'Mulder', 'Janssens', 'Maes', 'Willems', 'Claes'],
  },
  es: {
    male: ['Alejandro', 'Javier', 'Pablo', 'Diego', 'Sergio', 'Carlos', 'Álvaro', 'Miguel', 'Jorge', 'Raúl', 'Andrés', 'Luis'],
    female: ['Lucía', 'María', 'Paula', 'Laura', 'Carmen', 'Elena', 'Marta', 'Sara', 'Ana', 'Cristina', 'Valentina', 'Sofía'],
    last: ['García', 'Martínez', 'López', 'Sánchez', 'González', 'Rodríguez', 'Fernández', 'Pérez', 'Gómez', 'Ruiz', 'Hernández', 'Jiménez', 'Moreno', 'Navarro'],
  },
  pt: {
    male: ['João', 'Pedro', 'Tiago', 'Rafael', 'Gabriel', 'Lucas', 'Bruno', 'Rodrigo', 'Diogo', 'Gustavo', 'Felipe', 'André'],
    female: ['Ana', 'Beatriz', 'Mariana', 'Inês', 'Juliana', 'Camila', 'Fernanda', 'Larissa', 'Rita', 'Sofia', 'Carolina', 'Patrícia'],
    last: ['Silva', 'Santos', 'Ferreira', 'Pereira', 'Oliveira', 'Costa', 'Rodrigues', 'Almeida', 'Souza', 'Carvalho', 'Gomes', 'Ribeiro', 'Martins', 'Lima'],
  },
  it: {
    male: ['Marco', 'Luca', 'Alessandro', 'Giuseppe', 'Matteo', 'Francesco', 'Andrea', 'Davide', 'Simone', 'Federico', 'Stefano', 'Lorenzo'],
    female: ['Giulia', 'Chiara', 'Francesca', 'Sara', 'Martina', 'Valentina', 'Elena', 'Alessia', 'Federica', 'Silvia', 'Paola', 'Beatrice'],
    last: ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo', 'Conti', 'De Luca'],
  },
  sv: {
    male: ['Erik', 'Lars', 'Anders', 'Johan', 'Magnus', 'Oskar', 'Gustav', 'Henrik', 'Fredrik', 'Viktor', 'Axel', 'Nils'],
    female: ['Anna', 'Karin', 'Emma', 'Sara', 'Maria', 'Linnea', 'Ebba', 'Elin', 'Frida', 'Johanna', 'Ingrid', 'Astrid'],
    last: ['Andersson', 'Johansson', 'Karlsson', 'Nilsson', 'Eriksson', 'Larsson', 'Olsson', 'Persson', 'Svensson', 'Gustafsson', 'Lindberg', 'Lindqvist'],
  },
  da: {
    male: ['Mads', 'Rasmus', 'Søren', 'Frederik', 'Mikkel', 'Jesper', 'Kasper', 'Anders', 'Christian', 'Thomas', 'Emil', 'Jonas'],
    female: ['Mette', 'Camilla', 'Louise', 'Sofie', 'Ida', 'Maja', 'Line', 'Sidsel', 'Anne', 'Signe', 'Katrine', 'Freja'],
    last: ['Jensen', 'Nielsen', 'Hansen', 'Pedersen', 'Andersen', 'Christensen', 'Larsen', 'Sørensen', 'Rasmussen', 'Jørgensen', 'Madsen', 'Kristensen'],
  },
  no: {
    male: ['Ole', 'Lars', 'Håkon', 'Sindre', 'Eirik', 'Magnus', 'Kristian', 'Espen', 'Torbjørn', 'Sigurd', 'Anders', 'Martin'],
    female: ['Ingrid', 'Kari', 'Silje', 'Marte', 'Ingeborg', 'Hanne', 'Nora', 'Thea', 'Ragnhild', 'Tone', 'Solveig', 'Maren'],
    last: ['Hansen', 'Johansen', 'Olsen', 'Larsen', 'Andersen', 'Pedersen', 'Nilsen', 'Kristiansen', 'Jensen', 'Berg', 'Haugen', 'Hagen', 'Bakke'],
  },
  pl: {
    male: ['Piotr', 'Krzysztof', 'Tomasz', 'Paweł', 'Michał', 'Marcin', 'Jakub', 'Łukasz', 'Kamil', 'Mateusz', 'Grzegorz', 'Adam'],
    female: ['Anna', 'Katarzyna', 'Magdalena', 'Agnieszka', 'Joanna', 'Aleksandra', 'Monika', 'Natalia', 'Karolina', 'Zofia', 'Ewa', 'Justyna'],
    // Polish surnames ending in -ski/-cki take -ska/-cka for women.
    last: ['Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik', 'Kowalczyk', 'Kamiński', 'Lewandowski', 'Zieliński', 'Szymański', 'Woźniak', 'Dąbrowski', 'Mazur'],
  },
  fi: {
    male: ['Mikko', 'Juha', 'Antti', 'Jukka', 'Ville', 'Timo', 'Janne', 'Sami'],
    female: ['Laura', 'Anna', 'Sanna', 'Johanna', 'Hanna', 'Emilia', 'Aino', 'Riikka'],
    last: ['Virtanen', 'Korhonen', 'Nieminen', 'Mäkinen', 'Hämäläinen', 'Laine', 'Heikkinen', 'Koskinen'],
  },
};

/** The name set of a country (Finland has its own names; its titles are written in English). */
export function nameSetFor(country: string, language: string): string {
  if (country === 'FI') return 'fi';
  return language in NAMES ? language : 'en';
}

export interface PersonName {
  readonly first: string;
  readonly last: string;
  readonly feminine: boolean;
}

export function drawName(rng: Rng, nameSet: string): PersonName {
  const set = NAMES[nameSet] ?? NAMES.en!;
  const feminine = rng.chance(0.45);
  const first = rng.pick(feminine ? set.female : set.male);
  let last = rng.pick(set.last);
  if (feminine && nameSet === 'pl') last = last.replace(/ski$/, 'ska').replace(/cki$/, 'cka');
  return { first, last, feminine };
}

const COMPANY_STEMS = [
  'Acme', 'Nordlicht', 'Bluefin', 'Vireo', 'Kestrel', 'Halcyon', 'Solvi', 'Orbis', 'Tessera', 'Lumio', 'Brightwell', 'Northwind',
  'Quarry', 'Alder', 'Corvid', 'Mistral', 'Ferro', 'Pinecrest', 'Oakridge', 'Silvano', 'Zenit', 'Polaris', 'Vela', 'Arkon',
  'Trivium', 'Cobalt', 'Meridian', 'Helix', 'Larkspur', 'Sorrel', 'Cinder', 'Fjord', 'Tundra', 'Marlin', 'Osprey', 'Rivet',
  'Umber', 'Vantor', 'Aurora', 'Basalt', 'Calyx', 'Delta', 'Ember', 'Falcon', 'Granite', 'Harbor', 'Iris', 'Juniper', 'Kite',
  'Lyra', 'Monarch', 'Nimbus', 'Opal', 'Prism', 'Quill', 'Raven', 'Sable', 'Talon', 'Unity', 'Verde', 'Willow', 'Xenon', 'Yarrow',
];
const COMPANY_SECOND = ['', '', '', 'Labs', 'Group', 'Partners', 'Works', 'Systems', 'Holding', 'One', 'Collective'];

const LEGAL_FORMS: Readonly<Record<string, readonly string[]>> = {
  DE: ['GmbH', 'AG', 'GmbH & Co. KG', 'SE'],
  AT: ['GmbH', 'AG'],
  CH: ['AG', 'SA', 'GmbH'],
  FR: ['SAS', 'SA', 'SARL'],
  BE: ['NV', 'SA', 'BV', 'SRL'],
  NL: ['B.V.', 'N.V.', 'BV'],
  LU: ['S.A.', 'S.à r.l.'],
  ES: ['S.L.', 'S.A.'],
  MX: ['S.A. de C.V.'],
  PT: ['Lda', 'S.A.'],
  BR: ['Ltda.', 'S.A.'],
  IT: ['S.r.l.', 'S.p.A.'],
  SE: ['AB'],
  DK: ['A/S', 'ApS'],
  NO: ['AS', 'ASA'],
  FI: ['Oy', 'Oyj'],
  PL: ['Sp. z o.o.', 'S.A.'],
  US: ['Inc.', 'LLC', 'Corp.', 'Inc'],
  CA: ['Inc.', 'Ltd.', 'Corp.'],
  GB: ['Ltd', 'Limited', 'plc'],
  IE: ['Ltd', 'DAC'],
  SG: ['Pte. Ltd.'],
  AU: ['Pty Ltd'],
  IN: ['Pvt. Ltd.'],
  JP: ['K.K.', 'Co., Ltd.'],
};

export function drawCompanyName(rng: Rng, country: string): string {
  const second = rng.pick(COMPANY_SECOND);
  const legal = rng.chance(0.75) ? rng.pick(LEGAL_FORMS[country] ?? ['Ltd']) : '';
  return [rng.pick(COMPANY_STEMS), second, legal].filter((x) => x !== '').join(' ');
}

/** An ASCII slug for addresses ("Müller" -> "muller"). */
export function slug(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .replace(/ø/g, 'o')
    .replace(/æ/g, 'ae')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}
