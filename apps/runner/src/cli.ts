console.log('ftw');
