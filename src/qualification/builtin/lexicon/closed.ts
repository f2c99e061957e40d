import { cues } from './cue';

const PAPERS = '(contract|agreement|paperwork|order form|msa|sow|docusign|invoice|po|purchase order|signing link|dpa)';

/** A buying decision: go ahead, send the contract, signed. Negated ("not ready to sign") counts for nothing. */
export const CLOSED_CUES = cues('closed', [
  // English
  [4, new RegExp(`\\b(send|email|forward|mail)( me| us| over| across| it)* (the |your |a |an )?(signed )?${PAPERS}\\b`), { onNegation: null }],
  [4, /\b(ready|happy|able) to sign\b|\bwhere do i sign\b|\bwe'?ll sign\b|\bwe will sign\b|\bget it signed\b|\bcountersign\w*/, { onNegation: null }],
  [4, new RegExp(`\\b${PAPERS}s? (is |are |has been |have been )?(signed|countersigned|executed)\\b|\\bsigned (the |our |your )?${PAPERS}\\b|\\bsigned and returned\\b|\\bsigned off on\\b`), { onNegation: null }],
  [4, /\b(let'?s|we'?d like to|we want to|happy to|ready to|we will|we'?ll|we can) (move|go|push) (forward|ahead)\b/, { onNegation: null }],
  [3.5, /\bgo ahead and (activate|set up|start|send|bill|charge|invoice|create|book|process)\b/, { onNegation: null }],
  [3.5, /\bproceed with\b|\blet'?s proceed\b/, { onNegation: null }],
  [4, /\b(decided|chosen|agreed) to go with you\b|\bgoing with you\b/, { onNegation: null }],
  [3, /\bwe'?ll take it\b|\bwe'?re in\b|\bcount us in\b|\blet'?s do it\b|^deal\b|\bdeal[.!]/, { onNegation: null }],
  [3.5, /\bpurchase order\b|\bpo ?#?\d+|\b(a|the|our) po\b/],
  [4, /\b(we'?d|we would|we want|we'?re ready|ready) (like )?to (buy|purchase|subscribe|sign up|get started|onboard|commit|go ahead)\b|\bsign (us|me) up\b/, { onNegation: null }],
  [3.5, /\b(we'?re|we are) (going|moving) ahead\b|\bgoing ahead with\b/, { onNegation: null }],
  [4, /\bcommit(ting)? to (the|a|an) (\w+ )?(plan|contract|term|deal|subscription|licen[cs]e)\b|\bhappy to commit\b/, { onNegation: null }],
  [3.5, /\b(board|ceo|cfo|finance|legal|procurement|management) (has |have )?(approved|signed off|gave the go)\b/, { onNegation: null }],
  [4, /\b(let'?s|we can) (get|have) (the )?(contract|paperwork|agreement|deal) (done|signed|sorted|going|started)\b/, { onNegation: null }],
  [3, /\blet'?s get (started|going|this going|the ball rolling)\b/, { onNegation: null }],
  [2, /\b(billing|invoic(e|ing)|payment details|po number|facture|factuur)\b/],
  [2, /\b(contrat|contrato|contratto|vertrag|overeenkomst|contract)\b/, { onNegation: null }],
  [4, /\b(po|purchase order) (is |has been |was )?(approved|issued|raised|sent|attached)\b/, { onNegation: null }],
  [4, /\b(decided on|chose|chosen) you\b|\b(haben )?uns fur (sie|euch) entschieden\b|\bdecidido (seguir adelante|ir) con\b|\bseguir adelante con\b|\b(go|going) with the [\w-]+ (option|plan|package|tier|offer|proposal)\b/, { onNegation: null }],
  [3.5, /\bmake it official\b|\bwhere (do|can|should) (we|i) (send )?(the )?(pay|payment|sign)\b|\bfinali[sz]e (the )?(purchase|deal|contract|order|paperwork|agreement)\b/, { onNegation: null }],
  [3.5, /\b(on|nous|je) signe(ons)?\b|\bwir unterschreiben\b|\bzur unterschrift\b|\b(a gente|nos) assina\b|\bfirmiamo\b|\bfirmamos\b/, { onNegation: null }],
  [3, /\b(we|i) accept (the|your) (proposal|offer|quote|terms)\b|\baceptamos (la|el|su) (propuesta|oferta)\b|\bacceptons (la|votre) (proposition|offre)\b|\bakkoord met\b/, { onNegation: null }],
  [3, /\bgreen light\b|\bsigned off\b|\bsign-?off from\b/, { onNegation: null }],
  [2, /\bkick-?off\b|\bonboarding\b/],
  [3.5, /\bbudget (is |has been |was |got )?approved\b|\bapproved by (finance|legal|procurement|the board|management)\b/, { onNegation: null }],
  [3.5, /\bactivate (the |our |my )?(subscription|account|plan|licen[cs]e)\b|\bset up our account\b/, { onNegation: null }],
  [4, /\b(let'?s|we'?ll|we will|we'?d like to) (do|go with|take|buy|start with|sign up for) the (pro|annual|enterprise|business|team|starter|basic|premium|\d+-month) (plan|pilot|package|tier)\b/, { onNegation: null }],
  // French
  [4, /\benvoye[rz]?(-nous|-moi)? (le|votre) (contrat|bon de commande|devis)\b|\bnous (le )?signerons\b|\bprets? a signer\b|\bcontrat signe\b/, { onNegation: null }],
  [3.5, /\bc'est valide\b|\bc'est bon pour nous\b|\bon y va\b/, { onNegation: null }],
  [4, /\bnous validons\b|\bvalide(r|z|ons)? (la|votre) (proposition|offre|devis)\b|\bbon de commande\b|\bnous (souhaitons|voulons) (souscrire|commander|acheter|signer)\b/, { onNegation: null }],
  // German
  [4, /\bangebot an(nehmen)?\b|\bnehmen (das|ihr) angebot an\b|\bauftrag erteilt\b|\bwir (unterschreiben|unterzeichnen|bestellen)\b/, { onNegation: null }],
  [3.5, /\bvertrag\b.{0,40}\b(schicken|senden|zusenden|unterschreiben|zukommen)\b|\b(schicken|senden) sie (uns|mir) (bitte )?(den|die|das) (vertrag|vertragsunterlagen|bestellformular)\b/, { onNegation: null }],
  [3.5, /\bwir sind dabei\b|\bwir (mochten|wollen|werden) (bestellen|kaufen|abschliessen|unterschreiben|starten|loslegen)\b/, { onNegation: null }],
  [2, /\brechnung\b|\bauftrag\b/],
  // Spanish
  [4, /\b(queremos|quisieramos|vamos a) (contratar|comprar|firmar|suscribirnos)\b|\borden de compra\b/, { onNegation: null }],
  [2, /\bcomo procedemos\b|\bfactura\b/],
  [4, /\benvie(n)?(nos|me)? el contrato\b|\blo firmamos\b|\blisto para firmar\b|\bfirmamos\b/, { onNegation: null }],
  [2.5, /\badelante\b|\bcerramos\b/, { onNegation: null }],
  // Portuguese
  [2.5, /\baprovad[oa]\b/, { onNegation: null }],
  [3.5, /\bassinar(mos)?\b/, { onNegation: null }],
  [4, /\b(queremos|vamos) (contratar|comprar|assinar|fechar)\b|\b(ordem|pedido) de compra\b/, { onNegation: null }],
  [2, /\bfatura\b/],
  [3.5, /\bvamos fechar\b|\bfechado\b/, { onNegation: null }],
  [4, /\b(enviar|mande|envie|mandar) o contrato\b|\bpara assinatura\b|\bassinamos\b|\bvamos assinar\b/, { onNegation: null }],
  // Italian
  [4, /\b(abbiamo )?deciso di procedere\b|\b(vogliamo|vorremmo) (acquistare|comprare|firmare|procedere|abbonarci)\b|\bordine d'acquisto\b/, { onNegation: null }],
  [2, /\bfattura\b/],
  [3.5, /\bprocediamo\b/, { onNegation: null }],
  [4, /\bcontratto da firmare\b|\b(mandate|inviate|mandateci|inviateci)\b.{0,20}\bcontratto\b|\bfirmiamo\b/, { onNegation: null }],
  // Dutch
  [3.5, /\bter ondertekening\b|\bondertekenen\b|\bwe (willen|gaan) (graag )?(starten|beginnen|tekenen|kopen|bestellen)\b/, { onNegation: null }],
  [3.5, /\bakkoord\b/, { onNegation: null }],
  [4, /\bstuur (de|het|ons de|ons het) (overeenkomst|contract)\b|\b(overeenkomst|contract) maar op\b|\bdan tekenen we\b|\bwe tekenen\b/, { onNegation: null }],
]);
