package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public class CapabilitySet {
    public CapabilitySet() {
        // TODO
    }

    public CapabilitySet(String... values) {
        // TODO
    }

    public CapabilitySet(CapabilitySet capabilitySet) {
        // TODO
    }

    public CapabilitySet(byte[] codedForm) throws IOException {
        // TODO
    }

    public CapabilitySet(byte[] codedForm, int offset, int length) throws IOException {
        // TODO
    }

    public CapabilitySet(DataInput dis) throws IOException {
        // TODO
    }

    public byte[] toBytes() {
        throw new UnsupportedOperationException("not yet");
    }

    public void writeTo(DataOutput dataOutput) throws IOException {
        throw new UnsupportedOperationException("not yet");
    }

    public boolean hasCapability(String capability) {
        throw new UnsupportedOperationException("not yet");
    }

    public boolean matchCapabilities(CapabilitySet capabilitySet) {
        throw new UnsupportedOperationException("not yet");
    }

    public CapabilitySet getCapabilitiesWithPrefix(String prefix) {
        throw new UnsupportedOperationException("not yet");
    }

    public CapabilitySet unmatchedCapabilities(CapabilitySet capabilitySet) {
        throw new UnsupportedOperationException("not yet");
    }

    public int size() {
        throw new UnsupportedOperationException("not yet");
    }

    public static CapabilitySet load(String name) throws IOException {
        throw new UnsupportedOperationException("not yet");
    }

    public static CapabilitySet load(InputStream input) throws IOException {
        throw new UnsupportedOperationException("not yet");
    }

    public String[] getCapabilities() {
        throw new UnsupportedOperationException("not yet");
    }
}
