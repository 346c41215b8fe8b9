# Writes the BIOM tables, trees and HDF5 files of this directory with
# biom-format 2.1.12 and h5py 3.7.0 (Debian python3-biom-format,
# python3-h5py). Run from this directory: /usr/bin/python3 make.py
import io, json, zipfile
import numpy as np
import h5py
from biom.table import Table
from biom.util import biom_open

obs = ['O1', 'O2', 'O_3', 'O 4', 'O5']
samples = ['S1', 'S2', 'S3']
# rows: observations, columns: samples; O5 is in no sample.
data = np.array([[1, 0, 2],
                 [0, 3, 0],
                 [4, 5, 0],
                 [0, 0.5, 6],
                 [0, 0, 0]], dtype=float)
t = Table(data, obs, samples, type='OTU table')

with biom_open('table.biom', 'w') as f:            # BIOM 2.1, HDF5 superblock 0
    t.to_hdf5(f, 'twl testdata', compress=True)
with open('table.json', 'w') as f:                  # BIOM 1.0 JSON, sparse
    f.write(t.to_json('twl testdata'))
dense = json.loads(t.to_json('twl testdata'))
dense['matrix_type'] = 'dense'
dense['data'] = data.tolist()
with open('table-dense.json', 'w') as f:            # BIOM 1.0 JSON, dense
    json.dump(dense, f)
with open('table.tsv', 'w') as f:                   # classic OTU table
    f.write(t.to_tsv())
tax = [{'taxonomy': ['k__Bacteria', 'p__P%d' % i]} for i in range(len(obs))]
tt = Table(data, obs, samples, observation_metadata=tax)
with open('table-taxonomy.tsv', 'w') as f:          # classic OTU table with a taxonomy column
    f.write(tt.to_tsv(header_key='taxonomy', header_value='taxonomy'))

tree = "((O1:1,O2:2)0.95:0.5,(O_3:1.5,'O 4':0.25):1,O5:3);\n"
with open('tree.nwk', 'w') as f:
    f.write(tree)

uuid = '6f1c2a3e-0000-4000-8000-000000000001'
with zipfile.ZipFile('table.qza', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr(uuid + '/metadata.yaml', 'uuid: %s\ntype: FeatureTable[Frequency]\nformat: BIOMV210DirFmt\n' % uuid)
    z.write('table.biom', uuid + '/data/feature-table.biom')
uuid2 = '6f1c2a3e-0000-4000-8000-000000000002'
with zipfile.ZipFile('tree.qza', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr(uuid2 + '/metadata.yaml', 'uuid: %s\ntype: Phylogeny[Rooted]\nformat: NewickDirectoryFormat\n' % uuid2)
    z.writestr(uuid2 + '/data/tree.nwk', tree)

# HDF5 features beyond what biom-format writes, for package internal/hdf5.
with h5py.File('latest.h5', 'w', libver='latest') as f:   # superblock 3, object headers 2, link messages
    g = f.create_group('g')
    g.attrs['shape'] = np.array([3, 2], dtype=np.int32)
    g.attrs['name'] = 'latest'
    g.create_dataset('one', data=np.arange(10, dtype=np.int64), chunks=(10,), compression='gzip')
    g.create_dataset('cont', data=np.array([1.5, -2.25], dtype='>f8'))
    g.create_dataset('ids', data=np.array(['a', 'bb', 'ccc'], dtype=object), dtype=h5py.string_dtype())
with h5py.File('chunks.h5', 'w') as f:                   # superblock 0, many chunks, shuffle
    f.create_dataset('x', data=np.arange(7 * 5, dtype=np.int32).reshape(7, 5), chunks=(3, 2),
                     compression='gzip', shuffle=True)
    f.create_dataset('f', data=np.linspace(0, 1, 100, dtype=np.float32), chunks=(16,), compression='gzip',
                     shuffle=True, fletcher32=True)
    f.create_dataset('fixed', data=np.array([b'ab', b'cde'], dtype='S4'))
    f.attrs['u8'] = np.array([255, 1], dtype=np.uint8)
