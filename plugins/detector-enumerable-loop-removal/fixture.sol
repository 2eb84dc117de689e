pragma solidity ^0.8.0;

library EnumerableSet {
    struct AddressSet {
        address[] values;
        mapping(address => uint256) indexes;
    }

    function length(AddressSet storage set) internal view returns (uint256) {
        return set.values.length;
    }

    function at(AddressSet storage set, uint256 index) internal view returns (address) {
        return set.values[index];
    }

    function remove(AddressSet storage set, address value) internal returns (bool) {
        uint256 i = set.indexes[value];
        if (i == 0) return false;
        address last = set.values[set.values.length - 1];
        set.values[i - 1] = last;
        set.indexes[last] = i;
        set.values.pop();
        delete set.indexes[value];
        return true;
    }
}

contract Operators {
    using EnumerableSet for EnumerableSet.AddressSet;

    EnumerableSet.AddressSet private operators;
    mapping(address => bool) public banned;
    address public owner;

    modifier onlyOwner() {
        require(msg.sender == owner);
        _;
    }

    function purgeBanned() external onlyOwner {
        for (uint256 i = 0; i < operators.length(); i++) {
            address op = operators.at(i);
            if (banned[op]) operators.remove(op); // expect: enumerable-loop-removal
        }
    }

    function purgeByLibrary() external onlyOwner {
        uint256 i = 0;
        while (i < EnumerableSet.length(operators)) {
            address op = EnumerableSet.at(operators, i);
            if (banned[op]) EnumerableSet.remove(operators, op); // expect: enumerable-loop-removal
            i++;
        }
    }

    function purgeBackwards() external onlyOwner {
        for (uint256 i = operators.length(); i > 0; i--) {
            address op = operators.at(i - 1);
            if (banned[op]) operators.remove(op);
        }
    }

    function purgeStepping() external onlyOwner {
        uint256 i = 0;
        while (i < operators.length()) {
            address op = operators.at(i);
            if (banned[op]) {
                operators.remove(op);
            } else {
                i++;
            }
        }
    }

    function clearAll() external onlyOwner {
        while (operators.length() > 0) {
            operators.remove(operators.at(0));
        }
    }

    function purgeInTwoPasses() external onlyOwner {
        uint256 n = operators.length();
        address[] memory gone = new address[](n);
        for (uint256 i = 0; i < n; i++) {
            address op = operators.at(i);
            if (banned[op]) gone[i] = op;
        }
        for (uint256 j = 0; j < n; j++) {
            if (gone[j] != address(0)) operators.remove(gone[j]);
        }
    }
}
